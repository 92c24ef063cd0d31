package koala.provisioning;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Settings refused, with every problem found (not only the first). Nothing has been applied when
 * this is thrown: the caller keeps the settings it had.
 */
public final class InvalidSettingsException extends RuntimeException {
    private final transient List<SettingProblem> problems;

    public InvalidSettingsException(List<SettingProblem> problems) {
        super(problems.stream().map(SettingProblem::toString).collect(Collectors.joining("; ")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an InvalidSettingsException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** The problems, in the order of {@link Setting}. */
    public List<SettingProblem> problems() {
        return problems;
    }
}
