package koala.fluent;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** A batch of applications a client submits; they are placed in this order (FCFS within the job). */
public record FluentJob(String id, List<Application> apps, Instant submittedAt) {
    public FluentJob {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("a job needs an id");
        }
        apps = List.copyOf(apps);
        Objects.requireNonNull(submittedAt, "submittedAt");
        if (apps.isEmpty()) {
            throw new IllegalArgumentException(id + ": a job has at least 1 application");
        }
        Set<String> ids = new HashSet<>();
        for (Application app : apps) {
            if (!ids.add(app.id())) {
                throw new IllegalArgumentException(id + ": application " + app.id() + " appears twice");
            }
        }
    }
}
