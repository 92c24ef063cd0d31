package koala.sge;

/**
 * SGE's memory values ({@code 23.540G}, {@code 512M}, {@code 4096}) in MiB. As {@code man
 * sge_types} says, upper-case multipliers are powers of 1024 and lower-case ones powers of 1000.
 */
final class SgeMemory {
    private static final double MIB = 1024.0 * 1024.0;

    private SgeMemory() {
    }

    /** The value in MiB, rounded down; null for {@code -}, empty or {@code INFINITY} (no limit is no figure). */
    static Long mib(String value) {
        if (value == null || value.isBlank() || value.equals("-") || value.equalsIgnoreCase("infinity")) {
            return null;
        }
        String v = value.trim();
        char unit = v.charAt(v.length() - 1);
        double factor = switch (unit) {
            case 'K' -> 1024.0;
            case 'k' -> 1e3;
            case 'M' -> MIB;
            case 'm' -> 1e6;
            case 'G' -> MIB * 1024;
            case 'g' -> 1e9;
            case 'T' -> MIB * 1024 * 1024;
            case 't' -> 1e12;
            default -> 1.0;
        };
        String number = factor == 1.0 ? v : v.substring(0, v.length() - 1);
        try {
            // qhost prints three decimals: 8.000G is 8192 MiB, and rounding keeps it so
            return Math.round(Double.parseDouble(number) * factor / MIB);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an SGE memory value: '" + value + "'");
        }
    }
}
