package io.msgx.runner.http;

import java.util.List;

/**
 * What one readiness probe found: every check's name and result, in the order the checks were given.
 *
 * @param checks one entry per check
 */
public record ReadinessReport(List<CheckStatus> checks) {

    public ReadinessReport {
        checks = List.copyOf(checks);
    }

    /** One check's outcome. */
    public record CheckStatus(String name, ReadinessCheck.Result result) {
    }

    /** True when every check is UP (and vacuously when there are none). */
    public boolean ready() {
        return checks.stream().allMatch(status -> status.result().isUp());
    }

    /** As JSON: {@code {"status":"UP|DOWN","checks":[{"name":..,"status":..,"reason":..}]}}. */
    String toJson() {
        return toJson(null);
    }

    /** For a caller without a credential: the status and each check's name and status, no reason (D-146). */
    String toPublicJson() {
        return json(false).toString();
    }

    /** {@link #toJson()} with a {@code "head"} member holding {@code headJson} (JSON already); none when null. */
    String toJson(String headJson) {
        var json = json(true);
        return headJson == null ? json.toString() : json.putRaw("head", headJson).toString();
    }

    private Json json(boolean withReasons) {
        var items = checks.stream().map(status -> {
            var item = Json.object().put("name", status.name())
                    .put("status", status.result().isUp() ? "UP" : "DOWN");
            if (withReasons && status.result() instanceof ReadinessCheck.Result.Down down) {
                item.put("reason", down.reason());
            }
            return item.toString();
        }).toList();
        return Json.object().put("status", ready() ? "UP" : "DOWN").putRaw("checks", Json.array(items));
    }
}
