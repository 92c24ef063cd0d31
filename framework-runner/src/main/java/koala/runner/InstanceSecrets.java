package koala.runner;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The instance's token, the tokens it replaced, and its nodes' keys. The token is what the
 * framework, the owner and the instance's clients present; a node's key is what its launcher
 * presents about that node alone, issued at its first hello. The runner replaces (rotates) the
 * token when one of its nodes is lost, or when a node not its own says hello with it: from then
 * on only the new token is taken, and a launcher that proves its node with the node's key learns
 * the new one in its next heartbeat's answer. A replaced token still opens one door: the first
 * hello of a node the instance is waiting for — the grid may start a node granted to the instance
 * from a request made before the rotation — and that hello gets the node a key, so a replaced token
 * never reaches the new one except through a node the scheduler gave the instance. Not tied to the
 * runner's lock: the API checks a caller without waiting on the runner.
 */
final class InstanceSecrets {
    /** Replaced tokens kept for a granted node's first hello: enough for the grows that may still be started. */
    static final int REPLACED_KEPT = 8;

    private final Supplier<String> fresh;
    private String token;
    private final Deque<String> replaced;
    private final Map<String, String> nodeKeys;

    /** A new instance's: its token, nothing replaced, no node keys yet. */
    InstanceSecrets(String token) {
        this(token, java.util.List.of(), Map.of(), InstanceSecrets::fresh);
    }

    InstanceSecrets(String token, java.util.List<String> replaced, Map<String, String> nodeKeys, Supplier<String> fresh) {
        this.token = token;
        this.replaced = new ArrayDeque<>(replaced == null ? java.util.List.of() : replaced);
        this.nodeKeys = new TreeMap<>(nodeKeys == null ? Map.of() : nodeKeys);
        this.fresh = fresh;
    }

    synchronized String token() {
        return token;
    }

    /** Whether {@code given} is the instance's token now. */
    synchronized boolean current(String given) {
        return same(token, given);
    }

    /** Whether {@code given} is the token now or one it replaced (kept for the first hello of a node being started). */
    synchronized boolean known(String given) {
        return current(given) || replaced.stream().anyMatch(t -> same(t, given));
    }

    synchronized boolean keyed(String node) {
        return nodeKeys.containsKey(node);
    }

    synchronized boolean keyMatches(String node, String given) {
        String key = nodeKeys.get(node);
        return key != null && same(key, given);
    }

    /** A key for {@code node}, made at its first hello. */
    synchronized String issue(String node) {
        return nodeKeys.computeIfAbsent(node, n -> fresh.get());
    }

    /** Replaces the token; the old one is kept only for the first hellos of nodes being started. */
    synchronized String rotate() {
        replaced.addFirst(token);
        while (replaced.size() > REPLACED_KEPT) {
            replaced.removeLast();
        }
        token = fresh.get();
        return token;
    }

    /** Forgets the keys of nodes that are no longer the instance's. */
    synchronized void keepKeysOf(Set<String> nodes) {
        nodeKeys.keySet().retainAll(nodes);
    }

    synchronized RunnerState.Keys saved() {
        return new RunnerState.Keys(token, new ArrayList<>(replaced), new TreeMap<>(nodeKeys));
    }

    /** Takes the secrets a runner that died kept (a runner taking its instance over). */
    synchronized void restore(RunnerState.Keys keys) {
        token = keys.token();
        replaced.clear();
        replaced.addAll(keys.replaced());
        nodeKeys.clear();
        nodeKeys.putAll(keys.nodes());
    }

    /** 192 random bits, hex: a token or a node's key. */
    static String fresh() {
        byte[] bytes = new byte[24];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    private static boolean same(String secret, String given) {
        return given != null && MessageDigest.isEqual(secret.getBytes(StandardCharsets.UTF_8),
                given.getBytes(StandardCharsets.UTF_8));
    }
}
