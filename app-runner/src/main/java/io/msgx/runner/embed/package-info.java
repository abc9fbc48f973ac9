/**
 * The embedding API: {@link io.msgx.runner.embed.MsgExchange} and its builder, the pipeline as one object for the
 * {@code run} command and for services that embed it, and {@link io.msgx.runner.embed.PipelineStatus}, what its
 * {@code status()} answers. The wiring behind it lives in the packages named for each part.
 */
package io.msgx.runner.embed;
