package koala.testbed;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures round trips from inside a host: a small Python program (Java cannot enter a network
 * namespace) run with {@code ip netns exec}, which times {@value #SAMPLES} TCP connects to each
 * address given, to port {@value #PORT}. Nothing listens there on the testbed's hosts, so each
 * connect ends with the reset one round trip after the SYN; a connect that succeeds takes as long.
 * It prints one line per address: {@code ADDRESS MEDIAN_MS MIN_MS}, or {@code ADDRESS - REASON}
 * when a connect got no answer within a second.
 */
final class RttProbe {
    static final int SAMPLES = 5;
    static final int PORT = 1;

    static final String PROGRAM = """
            import socket, statistics, sys, time
            for address in sys.argv[1:]:
                rtts, why = [], "no answer"
                for _ in range(%d):
                    s = socket.socket()
                    s.settimeout(1.0)
                    start = time.perf_counter()
                    try:
                        s.connect((address, %d))
                    except ConnectionRefusedError:
                        pass
                    except OSError as e:
                        why = type(e).__name__
                        s.close()
                        break
                    rtts.append((time.perf_counter() - start) * 1000)
                    s.close()
                if len(rtts) == %d:
                    print(address, "%%.3f %%.3f" %% (statistics.median(rtts), min(rtts)))
                else:
                    print(address, "-", why)
            """.formatted(SAMPLES, PORT, SAMPLES);

    private RttProbe() {
    }

    /** The command that measures from {@code host} to {@code addresses}. */
    static List<String> command(String host, List<String> addresses) {
        List<String> command = new java.util.ArrayList<>(List.of("ip", "netns", "exec", host, "/usr/bin/python3", "-c", PROGRAM));
        command.addAll(addresses);
        return command;
    }

    /** A measured round trip in milliseconds, or null ones with the reason. */
    record Measured(Double medianMs, Double minMs, String error) {
    }

    /** The program's output by address; a line it cannot read is named as the error of its address. */
    static Map<String, Measured> parse(String output) {
        Map<String, Measured> byAddress = new LinkedHashMap<>();
        for (String line : output.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()) {
            String[] f = line.split("\\s+", 3);
            if (f.length == 3 && f[1].equals("-")) {
                byAddress.put(f[0], new Measured(null, null, f[2]));
            } else if (f.length == 3) {
                try {
                    byAddress.put(f[0], new Measured(Double.parseDouble(f[1]), Double.parseDouble(f[2]), null));
                } catch (NumberFormatException e) {
                    byAddress.put(f[0], new Measured(null, null, "unreadable: " + line));
                }
            }
        }
        return byAddress;
    }
}
