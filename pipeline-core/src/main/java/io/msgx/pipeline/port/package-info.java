/**
 * The ports: every interface pipeline-core asks an adapter to implement, and nothing else (ArchUnit holds both halves).
 *
 * <ul>
 *   <li><b>The store</b> ({@link io.msgx.pipeline.port.PipelineStore}, {@link io.msgx.pipeline.port.PipelineTransaction}),
 *       its ports by capability listed once in {@link io.msgx.pipeline.port.StorePorts}: of {@code PROC_STATE}
 *       {@link io.msgx.pipeline.port.MessageQueue}, {@link io.msgx.pipeline.port.IdentityRegister},
 *       {@link io.msgx.pipeline.port.BackfillMarks}, {@link io.msgx.pipeline.port.MessageReplays},
 *       {@link io.msgx.pipeline.port.MessageArchive} and {@link io.msgx.pipeline.port.MessageQueries}; of the outbox
 *       {@link io.msgx.pipeline.port.Notifications}, {@link io.msgx.pipeline.port.Projections},
 *       {@link io.msgx.pipeline.port.ReferenceNotifications}, {@link io.msgx.pipeline.port.DeadLetters},
 *       {@link io.msgx.pipeline.port.OutboxCleanup} and {@link io.msgx.pipeline.port.OutboxQueries}; and
 *       {@link io.msgx.pipeline.port.InboxCursors}, {@link io.msgx.pipeline.port.ReferenceData},
 *       {@link io.msgx.pipeline.port.RequestTrack}, {@link io.msgx.pipeline.port.OperatorAudit},
 *       {@link io.msgx.pipeline.port.FlightStore},
 *       {@link io.msgx.pipeline.port.FlightHistory}, {@link io.msgx.pipeline.port.Housekeeping},
 *       {@link io.msgx.pipeline.port.RawMessageCopies} and {@link io.msgx.pipeline.port.ScheduleLog}.</li>
 *   <li><b>The shared mailbox</b>: {@link io.msgx.pipeline.port.Mailbox}.</li>
 *   <li><b>The broker</b>: {@link io.msgx.pipeline.port.EventSink}.</li>
 *   <li><b>Metrics</b>: {@link io.msgx.pipeline.port.PipelineMetrics}.</li>
 * </ul>
 *
 * <p>The values they carry live beside the services that use them ({@code record}, {@code mailbox}, {@code delivery}); what every store implementation shares is in {@code store}.
 */
package io.msgx.pipeline.port;
