package koala.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import koala.common.failure.Conflict;
import koala.common.json.Json;
import koala.scheduler.storage.Store;

/**
 * Requests a caller names ({@code requestId}): a retry after a lost answer is answered as the first
 * try was, and not carried out again. As with idempotency keys elsewhere (Stripe's, the IETF's
 * {@code Idempotency-Key}), a name stands for one request: kept with its answer is what the request
 * asked, and the name sent again with something else asked is refused ({@link Conflict}, 409 at the
 * HTTP edge) naming the name, what differs and what the name was first used for, rather than answered
 * with the first request's job as if it were this one's.
 *
 * <p>What a request asked is the fields that make it that request ({@link Asked}); words kept for the
 * history and values a retry may carry anew are left out (a grow's {@code reason}, and its
 * {@code environment}, which carries the instance's current master address: a runner started again
 * in the place of one that died asks its grow in flight again with both changed). An answer kept
 * before requests were kept with it is given as before, unchecked.
 */
final class NamedRequests {
    /** What a named request is, in the words of a conflict's message. */
    enum Kind {
        SUBMIT, OPEN, GROW
    }

    /**
     * What a request asked: its kind and the fields that make it that request, by name, in the order
     * a conflict names them.
     */
    record Asked(Kind kind, Map<String, Object> fields) {
        Asked {
            Objects.requireNonNull(kind, "kind");
            fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }
    }

    private static final String KIND = "kind";
    /** Values longer than this are named in a conflict, not shown (a JDF's text). */
    private static final int SHOWN = 40;

    private final Store store;

    NamedRequests(Store store) {
        this.store = store;
    }

    /**
     * The answer kept for {@code owner}'s request named {@code requestId} (stored under {@code key}),
     * if it was carried out and asked what {@code asked} asks.
     *
     * @throws Conflict when the name was used for a request that asked something else
     */
    Optional<String> earlier(String owner, String key, String requestId, Asked asked) {
        Optional<Store.Answer> kept = store.answer(owner, key);
        if (kept.isEmpty() || kept.get().request() == null) {
            return kept.map(Store.Answer::answer);
        }
        Map<String, Object> before = read(kept.get().request());
        Map<String, Object> now = read(write(asked));
        if (!before.equals(now)) {
            throw new Conflict("request id '" + requestId + "' was used for " + madeBy(before, kept.get().answer())
                    + ", " + differences(before, now) + ": a request id names one request, and a retry repeats it "
                    + "unchanged; send a different request under a new id", "requestId");
        }
        return Optional.of(kept.get().answer());
    }

    /** Keeps {@code answer} to the request named so, with what it asked, in the caller's unit of work. */
    void remember(String owner, String key, Asked asked, String answer, Instant at) {
        store.saveAnswer(owner, key, write(asked), answer, at);
    }

    private static String write(Asked asked) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put(KIND, asked.kind().name());
        all.putAll(asked.fields());
        return Json.write(all);
    }

    private static Map<String, Object> read(String json) {
        try {
            return Json.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a named request kept unreadable: " + e.getMessage(), e);
        }
    }

    /** "the submit of job 7", "allocation 5's grow of 5 worker nodes (granted 3)". */
    private static String madeBy(Map<String, Object> asked, String answer) {
        Kind kind = Kind.valueOf(String.valueOf(asked.get(KIND)));
        return switch (kind) {
            case SUBMIT -> "the submit of job " + answer;
            case OPEN -> "the opening of allocation " + answer;
            case GROW -> {
                Map<String, Object> result = read(answer);
                yield "allocation " + result.get("allocation") + "'s grow of " + result.get("requested") + " "
                        + asked.get("role") + " nodes (granted " + result.get("granted") + ")";
            }
        };
    }

    /** "not a grow", "with another jdf", "with nodes 5 then and 4 now, site none then and 'fs1' now". */
    private static String differences(Map<String, Object> before, Map<String, Object> now) {
        if (!Objects.equals(before.get(KIND), now.get(KIND))) {
            return "not " + what(Kind.valueOf(String.valueOf(now.get(KIND))));
        }
        Set<String> names = new LinkedHashSet<>(now.keySet());
        names.addAll(before.keySet());
        List<String> differ = new ArrayList<>();
        for (String name : names) {
            Object then = before.get(name);
            Object asked = now.get(name);
            if (!Objects.equals(then, asked)) {
                differ.add(shown(then) && shown(asked) ? name + " " + show(then) + " then and " + show(asked)
                        + " now" : "another " + name);
            }
        }
        return "with " + String.join(", ", differ);
    }

    private static String what(Kind kind) {
        return switch (kind) {
            case SUBMIT -> "a submit";
            case OPEN -> "the opening of an allocation";
            case GROW -> "a grow";
        };
    }

    private static String show(Object value) {
        return value == null ? "none" : value instanceof String s ? "'" + s + "'" : value.toString();
    }

    private static boolean shown(Object value) {
        return value == null || value instanceof Number || value instanceof Boolean
                || value instanceof String s && s.length() <= SHOWN && s.indexOf('\n') < 0;
    }
}
