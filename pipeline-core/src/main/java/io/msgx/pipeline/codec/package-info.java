/**
 * The SIS XML codec: {@link io.msgx.pipeline.codec.XmlCodec} (the decoding and encoding rules are in its
 * Javadoc), its Woodstox implementation {@link io.msgx.pipeline.codec.JacksonXmlCodec}, and the values it
 * produces: {@link io.msgx.pipeline.codec.DecodeResult}, {@link io.msgx.pipeline.codec.DecodedMessage},
 * {@link io.msgx.pipeline.codec.MessageMeta}, {@link io.msgx.pipeline.codec.MsgKind},
 * {@link io.msgx.pipeline.codec.ReferenceAnswer}, {@link io.msgx.pipeline.codec.MessageIdentity}.
 */
package io.msgx.pipeline.codec;
