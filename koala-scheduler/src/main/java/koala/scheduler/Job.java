package koala.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.TransitionView;
import koala.jdf.JobDescription;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.JobRecord;

/** A job inside the scheduler: its stored record, its parsed description, its nodes and history. */
final class Job {
    private JobRecord record;
    private JobDescription description;
    private List<koala.api.scheduler.RolePlacement> roles = List.of();
    private List<koala.constraints.Constraint> roleConstraints;
    private final Map<String, NodeClaim> nodes = new LinkedHashMap<>();
    private final List<TransitionView> history = new ArrayList<>();
    /** Each node's spans, by node and attempt: how long its pilots held it. */
    private final Map<String, NodeSpan> spans = new LinkedHashMap<>();

    Job(JobRecord record, JobDescription description) {
        this.record = record;
        this.description = description;
    }

    long id() {
        return record.id();
    }

    JobState state() {
        return record.state();
    }

    JobRecord record() {
        return record;
    }

    void update(JobRecord next) {
        record = next;
    }

    JobDescription description() {
        return description;
    }

    /** An allocation's roles' tags and placement constraints, as its runner sent them; empty for none. */
    List<koala.api.scheduler.RolePlacement> roles() {
        return roles;
    }

    void roles(List<koala.api.scheduler.RolePlacement> next) {
        roles = List.copyOf(next);
        roleConstraints = null;
    }

    /** The roles' constraints in the constraints module's terms, once read ({@link JobConstraints#constraintsOf}); null before. */
    List<koala.constraints.Constraint> roleConstraints() {
        return roleConstraints;
    }

    void roleConstraints(List<koala.constraints.Constraint> read) {
        roleConstraints = List.copyOf(read);
    }

    /** An allocation grows by a component at a time. */
    void describe(JobDescription next) {
        description = next;
    }

    boolean allocation() {
        return Allocations.KIND.equals(record.kind());
    }

    List<NodeClaim> nodes() {
        return List.copyOf(nodes.values());
    }

    /** Nodes still held or being claimed. (A plain loop: every round asks every job in memory, several times.) */
    List<NodeClaim> heldNodes() {
        List<NodeClaim> held = null;
        for (NodeClaim n : nodes.values()) {
            if (n.state().held()) {
                if (held == null) {
                    held = new ArrayList<>(nodes.size());
                }
                held.add(n);
            }
        }
        return held == null ? List.of() : java.util.Collections.unmodifiableList(held);
    }

    NodeClaim node(String id) {
        return nodes.get(id);
    }

    void put(NodeClaim node) {
        nodes.put(node.id(), node);
    }

    /** The span of the node's current attempt, or null if that pilot has not arrived. */
    NodeSpan span(NodeClaim node) {
        return spans.get(node.id() + "/" + node.attempt());
    }

    void put(NodeSpan span) {
        spans.put(span.node() + "/" + span.attempt(), span);
    }

    List<NodeSpan> spans() {
        return List.copyOf(spans.values());
    }

    void record(TransitionView transition) {
        history.add(transition);
    }

    List<TransitionView> history() {
        return List.copyOf(history);
    }

    JobView view() {
        return view(nodes.values(), history);
    }

    /** As {@link #view}, with only the nodes held now and no history: its size follows the job's size now. */
    JobView heldView() {
        return view(heldNodes(), List.of());
    }

    private JobView view(java.util.Collection<NodeClaim> shown, List<TransitionView> history) {
        List<NodeView> nodeViews = shown.stream().map(n -> new NodeView(n.id(), n.component(), n.rank(),
                n.site(), n.state().name(), n.pilot(), n.host(), n.exitStatus(), role(n), n.gpus())).toList();
        return new JobView(record.id(), record.name(), record.owner(), record.kind(), record.state().name(), record.policy(),
                record.priority(), record.placeTries(), record.claimFailures(),
                record.state().ended() || record.state() == JobState.RUNNING ? null : record.waitingBecause(),
                record.submittedAt(), nodeViews, history);
    }

    /** What the node is for (master, orchestrator, worker) when its component says; null for a plain job's. */
    private String role(NodeClaim n) {
        List<koala.jdf.ComponentSpec> components = description.components();
        return n.component() < components.size() ? components.get(n.component()).role() : null;
    }

    /** When it ended: its last transition's time, if it has ended. */
    java.util.Optional<java.time.Instant> endedAt() {
        return record.state().ended() && !history.isEmpty() ? java.util.Optional.of(history.get(history.size() - 1).at())
                : java.util.Optional.empty();
    }

    /** The description a stored job was made from: its JDF, or an allocation's components so far. */
    static JobDescription describedBy(JobRecord record) {
        return Allocations.KIND.equals(record.kind()) ? StoredAllocation.reader().apply(record.jdf())
                : koala.jdf.JdfParser.parse(record.source(), record.jdf(), koala.jdf.ClusterCatalog.NONE);
    }

    boolean allExited() {
        return !nodes.isEmpty() && nodes.values().stream()
                .filter(n -> n.state() != NodeState.RELEASED).allMatch(n -> n.state() == NodeState.EXITED);
    }
}
