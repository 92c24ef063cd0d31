package koala.fluent.master;

import java.util.ArrayList;
import java.util.List;
import koala.fluent.Assignment;

/**
 * Where each component of a word count runs, by slot: slot 0 is the counter, slots 1..m the m
 * mappers (mapper i in slot i + 1), slot m + 1 the reader. Placed, an SWC's slots are its
 * assignments in order ({@link Components}); after a move the slots that left a worker are on others.
 *
 * @param workers the worker of each slot
 */
record Layout(List<String> workers) {
    Layout {
        workers = List.copyOf(workers);
        if (workers.size() < 3) {
            throw new IllegalArgumentException("a word count has a counter, a mapper and a reader, not " + workers);
        }
    }

    /** The slots of {@code where}, in assignment order. */
    static Layout of(List<Assignment> where) {
        List<String> slots = new ArrayList<>();
        where.forEach(a -> {
            for (int i = 0; i < a.slots(); i++) {
                slots.add(a.workerId());
            }
        });
        return new Layout(slots);
    }

    int mappers() {
        return workers.size() - 2;
    }

    String counter() {
        return workers.get(0);
    }

    List<String> mapperWorkers() {
        return workers.subList(1, workers.size() - 1);
    }

    String reader() {
        return workers.get(workers.size() - 1);
    }

    /** The role of slot {@code slot}: "counter", "mapper" or "reader". */
    String role(int slot) {
        return slot == 0 ? "counter" : slot == workers.size() - 1 ? "reader" : "mapper";
    }

    /** The index a DeviceManager knows the component of {@code slot} by: a mapper's number, else 0. */
    int index(int slot) {
        return role(slot).equals("mapper") ? slot - 1 : 0;
    }

    /** The slot of the component a DeviceManager calls {@code role} {@code index}. */
    int slot(String role, int index) {
        return switch (role) {
            case "counter" -> 0;
            case "mapper" -> index + 1;
            case "reader" -> workers.size() - 1;
            default -> throw new IllegalArgumentException("'" + role + "': one of reader, mapper, counter");
        };
    }

    /** "counter", "mapper 3", "reader". */
    String name(int slot) {
        return role(slot).equals("mapper") ? "mapper " + index(slot) : role(slot);
    }

    /** The distinct workers, in slot order. */
    List<String> distinct() {
        return workers.stream().distinct().toList();
    }
}
