package koala.api.scheduler;

import java.util.List;

/**
 * What a framework JDF says of where one role's nodes go, as a runner sends it when it opens its
 * allocation: the role's tags and its placement constraints, each as the JDF writes it
 * ({@code "anti-affinity role=orchestrator site"}). The scheduler keeps them with the allocation and
 * places the role's grows with them; every node of the role carries the tags, and {@code job=ID},
 * {@code instance=ID}, {@code owner=NAME}, {@code role=ROLE} and {@code component=N} besides.
 *
 * @param role        master, orchestrator or worker
 * @param component   the index in the JDF of the role's (first) component, the {@code component=N} its nodes carry
 * @param tags        the role's {@code tags}
 * @param constraints the role's {@code constraints}, the role their subject
 */
public record RolePlacement(String role, int component, List<String> tags, List<String> constraints) {
    public RolePlacement {
        tags = tags == null ? List.of() : List.copyOf(tags);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
    }
}
