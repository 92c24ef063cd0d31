package koala.scheduler;

import java.util.List;
import koala.arbitration.TakeBackBook;
import koala.common.json.Json;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The arbiter's books as the store keeps them, as JSON under a key each: the grid's ({@code arbitration.book}),
 * and a site's ({@code arbitration.book.site.S}) where grows pinned to it were decided. A scheduler started
 * again reads them back, so what the arbiter owed and took back survives a restart.
 */
final class KeptArbitrationBooks {
    private static final Logger LOG = LogManager.getLogger(KeptArbitrationBooks.class);
    private static final String BOOK = "arbitration.book";

    private final Store store;

    KeptArbitrationBooks(Store store) {
        this.store = store;
    }

    /** Has {@code sharing} read its books from the store and keep them there: the grid's, and each of {@code sites}'. */
    void keep(Sharing sharing, List<String> sites) {
        sharing.keepBooks(sites, this::read, this::write);
    }

    /** The book of {@code scope} (a site, or "" for the grid's) as the scheduler before this one left it; empty if none, or unreadable. */
    TakeBackBook read(String scope) {
        return store.state(key(scope)).map(json -> {
            try {
                return Json.mapper().readValue(json, TakeBackBook.class);
            } catch (java.io.IOException e) {
                LOG.warn("the arbiter's kept book is unreadable, starting afresh: {}", e.getMessage());
                return TakeBackBook.EMPTY;
            }
        }).orElse(TakeBackBook.EMPTY);
    }

    void write(String scope, TakeBackBook book) {
        store.saveState(key(scope), Json.write(book));
    }

    private static String key(String scope) {
        return scope.isEmpty() ? BOOK : BOOK + ".site." + scope;
    }
}
