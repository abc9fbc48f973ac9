/**
 * The runner's background loops: the {@link io.msgx.runner.jobs.JobRunner} that runs them on threads (or stepped), the
 * pipeline's job schedule on the active instance ({@link io.msgx.runner.jobs.PipelineJobs}), and their liveness.
 */
package io.msgx.runner.jobs;
