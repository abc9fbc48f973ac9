/**
 * What consumers receive: the JSON value of every event on the Kafka topics ({@code FlightEventJson},
 * {@code ReferenceEventJson}, with the {@code ChangeCause} of a change) and the published JSON Schemas it is checked
 * against ({@code PublishedSchemas}, {@code FieldDescriptions}); docs/consumers.md is the contract in prose.
 */
package io.msgx.pipeline.published;
