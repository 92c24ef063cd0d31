package koala.provisioning;

import java.util.Comparator;

/**
 * The order ties are broken in: ids compared with their runs of digits as numbers, so w2 comes
 * before w10; ids equal that way ("w02", "w2") fall back to plain string order. Total and deterministic.
 */
public final class NaturalOrder implements Comparator<String> {
    public static final NaturalOrder IDS = new NaturalOrder();

    private NaturalOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            if (Character.isDigit(a.charAt(i)) && Character.isDigit(b.charAt(j))) {
                int endA = digitsEnd(a, i);
                int endB = digitsEnd(b, j);
                int c = compareNumbers(a.substring(i, endA), b.substring(j, endB));
                if (c != 0) {
                    return c;
                }
                i = endA;
                j = endB;
            } else {
                if (a.charAt(i) != b.charAt(j)) {
                    return Character.compare(a.charAt(i), b.charAt(j));
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    private static int digitsEnd(String s, int from) {
        int end = from;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        return end;
    }

    /** Compares digit strings of any length as numbers. */
    private static int compareNumbers(String x, String y) {
        String a = withoutLeadingZeros(x);
        String b = withoutLeadingZeros(y);
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }

    /** "007" is "7", "000" is "0". Without a regex: the simulator compares ids millions of times. */
    private static String withoutLeadingZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
