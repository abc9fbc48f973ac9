/**
 * This build: its version and commit, as {@code --version}, the start-up line and the {@code msgx.build.info} gauge
 * show them.
 */
package io.msgx.runner.build;
