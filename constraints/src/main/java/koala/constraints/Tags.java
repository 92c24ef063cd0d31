package koala.constraints;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The tags of a container, or the tags a constraint names: a set of strings such as its role
 * ({@code role=worker}), its framework instance ({@code instance=A}), its owner ({@code owner=alice}) or
 * any user tag ({@code hbase}). A container <em>carries</em> a tag set when it has every tag of it, so a
 * constraint can name "the workers of instance A" as {@code {instance=A, role=worker}}. Kept sorted, so
 * that the same set prints the same way.
 */
public record Tags(SortedSet<String> values) {
    public Tags {
        for (String v : values) {
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("a tag is a non-blank string, got '" + v + "'");
            }
        }
        values = Collections.unmodifiableSortedSet(new TreeSet<>(values));
    }

    public static Tags of(String... tags) {
        return of(List.of(tags));
    }

    public static Tags of(Collection<String> tags) {
        return new Tags(new TreeSet<>(tags));
    }

    /** True when every tag of {@code wanted} is one of these. */
    public boolean carries(Tags wanted) {
        return values.containsAll(wanted.values);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The smallest tag by name: where {@link ClusterState} files a constraint (any carrier has it). */
    public String first() {
        return values.first();
    }

    @Override
    public String toString() {
        return "{" + String.join(", ", values) + "}";
    }
}
