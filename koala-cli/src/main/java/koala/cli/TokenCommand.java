package koala.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import koala.api.scheduler.TokenView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Tokens for programs and other hosts, which the scheduler cannot identify through its Unix socket. */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Tokens that identify you to the scheduler over TCP (for programs and other hosts; on the "
                + "head node bin/koala needs none: the scheduler's Unix socket tells it who you are).",
        subcommands = {TokenCommand.Create.class, TokenCommand.Rotate.class})
final class TokenCommand {

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Prints a token naming you, signed by the scheduler and valid for --lifetime. Whoever "
                    + "holds it acts as you until it expires or an admin rotates the key: keep it like a password.",
                    "Use: export KOALA_TOKEN=$(koala token create); koala jobs --scheduler http://127.0.0.1:PORT"})
    static final class Create implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Option(names = "--lifetime", paramLabel = "DURATION", defaultValue = "PT24H",
                description = "how long it is valid, ISO-8601 (PT1H, P7D; at most 366 days; default ${DEFAULT-VALUE})")
        Duration lifetime;

        @Option(names = "--verbose", description = "also say whose it is and when it expires (on standard error)")
        boolean verbose;

        @Override
        public Integer call() {
            TokenView token = grid.client().createToken(lifetime);
            System.out.println(token.token());
            if (verbose) {
                System.err.printf("token of %s (uid %d), valid until %s%n", token.user(), token.uid(), token.expiresAt());
            }
            return 0;
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true,
            description = "Makes a new token key (admins only): every token issued so far stops working at once; no "
                    + "restart needed.")
    static final class Rotate implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Override
        public Integer call() {
            grid.client().rotateTokenKey();
            System.out.println("token key rotated: every token issued before now is refused");
            return 0;
        }
    }
}
