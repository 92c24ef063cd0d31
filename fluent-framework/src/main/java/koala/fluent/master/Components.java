package koala.fluent.master;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.fluent.Assignment;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;

/**
 * The components of a placed application and the DeviceManager each goes to, in the order they
 * must start: an RL is one component; an SWC's slots are, in assignment order, the counter, the
 * 2^n mappers and the reader, started counter first and reader last so that nothing is streamed
 * to a component not yet there.
 */
final class Components {
    /** One component to start at {@code url}. */
    record Start(String worker, String url, Deploy deploy) {
    }

    private Components() {
    }

    static List<Start> of(String app, AppRequest request, List<Assignment> where, Map<String, String> urls) {
        List<String> slots = new ArrayList<>();
        where.forEach(a -> {
            for (int i = 0; i < a.slots(); i++) {
                slots.add(a.workerId());
            }
        });
        if (request.kind().equals("rl")) {
            return List.of(start(slots.get(0), urls, new Deploy(app, "rl", 0, request.durationMillis(),
                    request.cpuPercent(), request.loadPeriodMillis(), null, List.of(), null)));
        }
        int mappers = slots.size() - 2;
        String counterUrl = urls.get(slots.get(0));
        List<String> mapperUrls = slots.subList(1, mappers + 1).stream().map(urls::get).toList();
        List<Start> starts = new ArrayList<>();
        starts.add(start(slots.get(0), urls, swc(app, "counter", 0, request, mapperUrls, null)));
        for (int m = 0; m < mappers; m++) {
            starts.add(start(slots.get(m + 1), urls, swc(app, "mapper", m, request, List.of(), counterUrl)));
        }
        starts.add(start(slots.get(mappers + 1), urls, swc(app, "reader", 0, request, mapperUrls, null)));
        return starts;
    }

    private static Deploy swc(String app, String role, int index, AppRequest r, List<String> mappers, String counter) {
        return new Deploy(app, role, index, r.durationMillis(), r.cpuPercent(), 0, r.file(), mappers, counter);
    }

    private static Start start(String worker, Map<String, String> urls, Deploy deploy) {
        String url = urls.get(worker);
        if (url == null) {
            throw new IllegalStateException("worker " + worker + " has no DeviceManager address");
        }
        return new Start(worker, url, deploy);
    }
}
