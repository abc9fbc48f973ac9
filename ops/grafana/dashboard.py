"""Writes msgexchange.json, the Grafana dashboard: `python3 ops/grafana/dashboard.py`. Edit the panels here, not the
JSON; DocumentedMetricsTest checks that every metric a panel queries is on /metrics."""
import json
import pathlib

PANELS = [
    # (title, kind, unit, [(expr, legend)], description)
    ("FIFO head held by", "timeseries", "none",
     [('max by (reason) (msgx_pipeline_head_blocked)', '{{reason}}')],
     "1 while the head waits for this reason: unsupported, backoff, beyond_watermark, hole (runbook: MsgxFifoHead*)"),
    ("FIFO head age", "timeseries", "s",
     [('max by (instance) (msgx_pipeline_head_age_seconds)', 'head {{instance}}'),
      ('max by (instance) (msgx_pipeline_backlog_oldest_unprocessed_seconds)', 'oldest open {{instance}}')],
     "How long the smallest open message, and the oldest one, have waited"),
    ("Open messages", "timeseries", "short",
     [('sum(msgx_pipeline_backlog_pending_messages)', 'PENDING'),
      ('sum(msgx_pipeline_backlog_failed_messages)', 'FAILED'),
      ('sum(msgx_pipeline_dead_messages)', 'DEAD (not archived)')], ""),
    ("Messages ended per second", "timeseries", "ops",
     [('sum by (state) (rate(msgx_pipeline_messages_ended_total[5m]))', '{{state}}')], ""),
    ("Failed attempts per second", "timeseries", "ops",
     [('sum by (error_class) (rate(msgx_pipeline_attempts_failed_total[5m]))', '{{error_class}}')], ""),
    ("Intake", "timeseries", "short",
     [('sum(rate(msgx_inbox_enqueued_messages_total[5m]))', 'enqueued/s'),
      ('max(msgx_inbox_watermark_lag_ids)', 'watermark lag (IDs)'),
      ('sum(increase(msgx_inbox_permanent_holes_ids_total[1h]))', 'permanent holes (1 h)')], ""),
    ("Outbox", "timeseries", "short",
     [('max(msgx_dispatch_pending_events)', 'pending'),
      ('max(msgx_dispatch_dead_letters_events)', 'dead letters'),
      ('sum(rate(msgx_dispatch_delivered_events_total[5m]))', 'delivered/s'),
      ('sum(rate(msgx_dispatch_failed_events_total[5m]))', 'failed/s')], ""),
    ("Oldest undelivered event", "timeseries", "s",
     [('max(msgx_dispatch_oldest_pending_seconds)', 'age')], "Commit to Kafka is late (runbook: MsgxDispatchLag)"),
    ("Dependencies up", "timeseries", "none",
     [('min by (check) (msgx_health_check_up)', '{{check}}')], "1 up, 0 down, probed every 15 s"),
    ("Active instances", "stat", "none",
     [('sum(msgx_instance_active)', 'active')], "Exactly 1 is right: 0 means nothing is processed"),
    ("Mailbox marks", "timeseries", "short",
     [('max(msgx_backfill_owed_messages)', 'owed'),
      ('max(msgx_backfill_abandoned_messages)', 'abandoned'),
      ('max(msgx_backfill_abandoned_unreconciled_messages)', 'abandoned, unreconciled')], ""),
    ("Processing time per message (p99)", "timeseries", "s",
     [('histogram_quantile(0.99, sum by (le) (rate(msgx_dispatch_commit_to_ack_seconds_bucket[5m])))',
       'commit to Kafka ack p99'),
      ('sum(rate(msgx_pipeline_message_processing_seconds_sum[5m])) / sum(rate(msgx_pipeline_message_processing_seconds_count[5m]))',
       'message processing, mean'),
      ('sum(rate(msgx_pipeline_group_processing_seconds_sum[5m])) / sum(rate(msgx_pipeline_group_processing_seconds_count[5m]))',
       'group transaction, mean')], "What a consumer waits for, and what the pump spends"),
    ("Store and mailbox pools", "timeseries", "short",
     [('max by (pool) (hikaricp_connections_active)', 'active {{pool}}'),
      ('max by (pool) (hikaricp_connections_pending)', 'pending {{pool}}')], "Pending > 0 for minutes: MsgxStorePoolStarved"),
    ("JVM heap", "timeseries", "bytes",
     [('sum by (instance) (jvm_memory_used_bytes{area="heap"})', 'used {{instance}}'),
      ('sum by (instance) (jvm_memory_max_bytes{area="heap"} > 0)', 'max {{instance}}')], ""),
    ("Unmapped elements per hour", "timeseries", "short",
     [('sum by (type, path) (increase(msgx_codec_unmapped_total[1h]))', '{{type}} {{path}}')],
     "What the AODB sends that the model does not keep yet (D-65)"),
]


def panel(index, title, kind, unit, targets, description):
    return {
        "id": index + 1,
        "title": title,
        "type": kind,
        "description": description,
        "datasource": {"type": "prometheus", "uid": "${datasource}"},
        "gridPos": {"h": 8, "w": 12, "x": (index % 2) * 12, "y": (index // 2) * 8},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [{"refId": chr(65 + n), "expr": expr, "legendFormat": legend}
                    for n, (expr, legend) in enumerate(targets)],
    }


dashboard = {
    "title": "msgexchange",
    "uid": "msgexchange",
    "tags": ["msgexchange", "aodb"],
    "timezone": "browser",
    "schemaVersion": 39,
    "version": 1,
    "refresh": "30s",
    "time": {"from": "now-6h", "to": "now"},
    "templating": {"list": [{"name": "datasource", "type": "datasource", "query": "prometheus", "label": "Prometheus"}]},
    "panels": [panel(i, *p) for i, p in enumerate(PANELS)],
}

out = pathlib.Path(__file__).with_name("msgexchange.json")
out.write_text(json.dumps(dashboard, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
