package koala.api.scheduler;

import java.util.List;

/**
 * The first node of an MPI job asks the scheduler to start one of Open MPI's daemons on another node
 * of the job (what {@code ssh HOST COMMAND} does for {@code mpirun} elsewhere): its launch agent
 * sends this, authenticated with the first node's token.
 *
 * @param host    the host the daemon is for, as the job's host list names it
 * @param command the daemon's command line, words as Open MPI gave them (run with {@code /bin/sh -c})
 */
public record MpiStart(String token, String host, List<String> command) {
    public MpiStart {
        command = command == null ? List.of() : List.copyOf(command);
    }
}
