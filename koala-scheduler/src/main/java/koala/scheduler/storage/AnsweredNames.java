package koala.scheduler.storage;

/**
 * The names of the requests the answers table may hold, in memory: a Bloom filter of each owner's
 * request names, so that a request named for the first time (nearly every one) is known new without
 * asking the database, a round trip on a server. "Not there" is certain, "there" only likely: a name it
 * holds is looked up in the table, and a name it holds that the table does not (a unit undone, an answer
 * forgotten, a rare collision) costs only that look-up. What it never does is miss a name the table has,
 * as long as every answer saved is added to it and it was filled from the table when no other scheduler
 * wrote to it any more ({@link SqlAnswers}).
 *
 * <p>Its size is fixed when filled: 16 bits a name for {@link #capacity} names (a collision about once
 * in 2,000 new names), at least {@value #LEAST} names (128 KB). Once more names were added than that, it
 * says so ({@link #full}) and is filled again from the table, twice the size of what it holds.
 */
final class AnsweredNames {
    static final int LEAST = 1 << 16;
    private static final int BITS_PER_NAME = 16;
    private static final int HASHES = 8;

    private final long[] bits;
    /** log2 of the number of bits. */
    private final int shift;
    private final int capacity;
    private int added;

    /** An empty filter for {@code names} names or {@value #LEAST}, whichever is more. */
    AnsweredNames(int names) {
        int want = Math.max(LEAST, names);
        long size = Long.highestOneBit((long) want * BITS_PER_NAME - 1) << 1; // a power of two, at least want * 16
        this.shift = 64 - Long.numberOfTrailingZeros(size);
        this.bits = new long[(int) (size >>> 6)];
        this.capacity = want;
    }

    int capacity() {
        return capacity;
    }

    /** More names were added than it was made for: false "there"s grow more frequent from now on. */
    boolean full() {
        return added > capacity;
    }

    void add(String owner, String request) {
        long h1 = hash(owner, request);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        for (int i = 0; i < HASHES; i++) {
            int bit = (int) ((h1 + i * h2) >>> shift);
            bits[bit >>> 6] |= 1L << bit;
        }
        added++;
    }

    /** False: the name is certainly not in the table; true: it may be. */
    boolean mayHold(String owner, String request) {
        long h1 = hash(owner, request);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        for (int i = 0; i < HASHES; i++) {
            int bit = (int) ((h1 + i * h2) >>> shift);
            if ((bits[bit >>> 6] & 1L << bit) == 0) {
                return false;
            }
        }
        return true;
    }

    /** FNV-1a over the owner, a separator no name holds (U+FFFF is not a character) and the request, mixed. */
    private static long hash(String owner, String request) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < owner.length(); i++) {
            h = (h ^ owner.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ 0xFFFF) * 0x100000001b3L;
        for (int i = 0; i < request.length(); i++) {
            h = (h ^ request.charAt(i)) * 0x100000001b3L;
        }
        return mix(h);
    }

    /** MurmurHash3's finalizer: every bit of the input moves every bit of the output. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53ae53bL;
        h ^= h >>> 33;
        return h;
    }
}
