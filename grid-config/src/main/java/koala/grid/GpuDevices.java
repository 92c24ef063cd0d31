package koala.grid;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The GPU device indices an admin declares for one host ({@code site.fs0.gpuDevices.fs0-n16 = 1,2,3}):
 * the numbers its jobs see in {@code CUDA_VISIBLE_DEVICES}, when they are not the first N (a device
 * kept for the display, a broken one). Whole numbers, 0 or more, comma-separated, each once.
 */
public final class GpuDevices {
    private static final Pattern INDEX = Pattern.compile("\\d{1,6}");

    private GpuDevices() {
    }

    /**
     * The devices {@code text} declares, in its order.
     *
     * @throws IllegalArgumentException saying what is wrong ({@link #problem})
     */
    public static List<Integer> parse(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("no device named (write e.g. 1,2,3, or leave the key out for 0..N-1)");
        }
        List<Integer> devices = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            String index = item.strip();
            if (!INDEX.matcher(index).matches()) {
                throw new IllegalArgumentException(index.isEmpty() ? "an empty device index (write e.g. 1,2,3)"
                        : "'" + index + "' is not a device index (a whole number, 0 or more)");
            }
            int device = Integer.parseInt(index);
            if (devices.contains(device)) {
                throw new IllegalArgumentException("device " + device + " named twice");
            }
            devices.add(device);
        }
        return List.copyOf(devices);
    }

    /** Why {@code text} is not a list of device indices; empty when it is one. */
    public static Optional<String> problem(String text) {
        try {
            parse(text);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}
