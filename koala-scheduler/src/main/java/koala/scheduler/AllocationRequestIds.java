package koala.scheduler;

import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.RolePlacement;
import koala.common.json.Json;
import koala.scheduler.storage.Store;

/**
 * The names runners give their opens and grows ({@code requestId}): a retry is answered as the first try
 * was and nothing is carried out twice (a runner restarted while its grow was in flight asks again, not
 * knowing whether the first one arrived; the answer is in the store, so this holds across the scheduler's
 * own restarts too), and a name reused for another request is a {@link koala.common.failure.Conflict}
 * ({@link NamedRequests}). An open is named per owner; a grow per owner and allocation.
 */
final class AllocationRequestIds {
    private final NamedRequests named;
    private final InstantSource clock;

    AllocationRequestIds(Store store, InstantSource clock) {
        this.named = new NamedRequests(store);
        this.clock = clock;
    }

    /** The allocation an open named {@code requestId} made before, if one did. */
    Optional<Long> opened(String owner, String requestId, String holder, List<RolePlacement> roles) {
        return requestId == null ? Optional.empty()
                : named.earlier(owner, requestId, requestId, open(holder, roles)).map(Long::parseLong);
    }

    void rememberOpen(String owner, String requestId, String holder, List<RolePlacement> roles, long allocation) {
        if (requestId != null) {
            named.remember(owner, requestId, open(holder, roles), Long.toString(allocation), clock.instant());
        }
    }

    /** The answer a grow of allocation {@code id} named as {@code request} got before, if it was carried out. */
    Optional<GrowResult> answered(String owner, long id, GrowRequest request) {
        return request.requestId() == null ? Optional.empty() : named.earlier(owner, id + "/" + request.requestId(),
                request.requestId(), grow(request)).map(AllocationRequestIds::growResult);
    }

    void rememberGrow(String owner, long id, GrowRequest request, GrowResult result) {
        if (request.requestId() != null) {
            named.remember(owner, id + "/" + request.requestId(), grow(request), Json.write(result), clock.instant());
        }
    }

    private static NamedRequests.Asked open(String holder, List<RolePlacement> roles) {
        return new NamedRequests.Asked(NamedRequests.Kind.OPEN, Map.of("owner", holder, "roles", roles));
    }

    /**
     * What a grow asks, as its request id stands for it: not its reason (words for the history) nor
     * its environment (a runner started again asks its grow in flight again with the instance's master
     * address of now), which a retry may carry anew.
     */
    private static NamedRequests.Asked grow(GrowRequest request) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("nodes", request.nodes());
        fields.put("role", Grows.role(request));
        fields.put("site", request.site());
        fields.put("executable", request.executable());
        fields.put("arguments", request.arguments());
        fields.put("stdout", request.stdout());
        fields.put("stderr", request.stderr());
        // each node's size only when asked: a grow stored before grows had sizes reads as one that asked none
        if (request.cores() != null) {
            fields.put("cores", request.cores());
        }
        if (request.memoryMiB() != null) {
            fields.put("memoryMiB", request.memoryMiB());
        }
        if (request.gpus() != null) {
            fields.put("gpus", request.gpus());
        }
        return new NamedRequests.Asked(NamedRequests.Kind.GROW, fields);
    }

    private static GrowResult growResult(String json) {
        try {
            return Json.mapper().readValue(json, GrowResult.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable stored answer to a grow: " + e.getMessage(), e);
        }
    }
}
