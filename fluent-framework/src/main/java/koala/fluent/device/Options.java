package koala.fluent.device;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The {@code --name value} options of the framework's processes (master, DeviceManager); anything else is a mistake. */
public final class Options {
    private Options() {
    }

    public static Map<String, String> parse(String[] args, Set<String> known) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!known.contains(args[i])) {
                throw new IllegalArgumentException("unexpected argument " + args[i] + "; options: " + known);
            }
            options.put(args[i], args[i + 1]);
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("option " + args[args.length - 1] + " has no value");
        }
        return options;
    }
}
