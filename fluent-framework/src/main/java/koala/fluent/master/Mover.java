package koala.fluent.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.failure.Unavailable;
import koala.fluent.wire.FluentMessages.ComponentState;
import koala.fluent.wire.FluentMessages.Handover;
import koala.fluent.wire.FluentMessages.Repoint;
import koala.fluent.wire.FluentMessages.Takeover;
import koala.http.ApiException;

/**
 * Carries out a {@link MovePlan} on the DeviceManagers, in an order that makes it safe to repeat:
 * <ol>
 * <li>suspend the word count on every worker it was on: the reader stops at a record boundary, and
 *     the call returns only once the batch it was sending is counted (already so when the state
 *     suspended it; a yield suspends it here);</li>
 * <li>each worker a component leaves hands its state over, and keeps the components frozen;</li>
 * <li>each destination takes its components over, suspended, with the new addresses;</li>
 * <li>every worker of the word count is repointed: the reader to the mappers' new addresses, the
 *     mappers to the counter's;</li>
 * <li>the workers left release what they handed over.</li>
 * </ol>
 * Until step 5 the old components hold the whole state, and asked again they hand over the same; after
 * it every taker has its components. So a move cut short (a master killed mid-way) is finished by doing
 * it {@code again}: a component its old worker no longer holds was taken over already. In a first
 * attempt a missing component is a failure (the word count finished or failed there). Resuming is the
 * caller's: only once the move is done.
 */
final class Mover {
    private Mover() {
    }

    /** Moves the components; returns how many moved. Throws {@link Unavailable} naming the step that failed. */
    static int carry(Devices devices, MovePlan plan, Map<String, String> urls, boolean again) {
        String app = plan.app();
        String step = "suspend";
        try {
            for (String w : plan.before().distinct()) {
                devices.suspend(url(urls, w), app);
            }
            step = "hand over";
            Map<Integer, ComponentState> states = handOver(devices, plan, urls, again);
            step = "take over";
            Map<String, List<ComponentState>> to = new LinkedHashMap<>();
            plan.steps().stream().filter(s -> states.containsKey(s.slot()))
                    .forEach(s -> to.computeIfAbsent(s.to(), w -> new ArrayList<>()).add(states.get(s.slot())));
            List<String> mappers = plan.after().mapperWorkers().stream().map(w -> url(urls, w)).toList();
            String counter = url(urls, plan.after().counter());
            for (Map.Entry<String, List<ComponentState>> e : to.entrySet()) {
                devices.takeover(url(urls, e.getKey()), new Takeover(app, e.getValue(), mappers, counter));
            }
            step = "repoint";
            for (String w : plan.after().distinct()) {
                devices.repoint(url(urls, w), app, new Repoint(mappers, counter));
            }
            step = "release";
            for (String w : plan.sources()) {
                devices.release(url(urls, w), app);
            }
            return plan.steps().size();
        } catch (ApiException | UnsupportedOperationException | IllegalStateException e) {
            throw new Unavailable("could not move " + app + " (" + step + "): " + e.getMessage(), e);
        }
    }

    private static Map<Integer, ComponentState> handOver(Devices devices, MovePlan plan, Map<String, String> urls,
                                                         boolean again) {
        Map<Integer, ComponentState> states = new HashMap<>();
        for (String w : plan.sources()) {
            // only those leaving w: a component the plan keeps on w must go on counting there
            List<String> leaving = plan.steps().stream().filter(s -> s.from().equals(w))
                    .map(s -> plan.before().name(s.slot())).toList();
            Handover h = devices.handover(url(urls, w), plan.app(), leaving);
            for (ComponentState c : h.components()) {
                int slot = plan.before().slot(c.role(), c.index());
                if (plan.before().workers().get(slot).equals(w)) { // not one it took over from another
                    states.put(slot, c);
                }
            }
        }
        for (MovePlan.Step s : plan.steps()) {
            if (!states.containsKey(s.slot()) && !again) {
                throw new IllegalStateException(s.from() + " no longer holds " + plan.before().name(s.slot())
                        + " (finished or failed there)");
            }
        }
        return states;
    }

    private static String url(Map<String, String> urls, String worker) {
        String url = urls.get(worker);
        if (url == null) {
            throw new IllegalStateException("worker " + worker + " has no DeviceManager address");
        }
        return url;
    }
}
