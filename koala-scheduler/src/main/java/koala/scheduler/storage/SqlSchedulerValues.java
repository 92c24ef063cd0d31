package koala.scheduler.storage;

import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;

/** The meta table: the scheduler's pilot tag and its named values ({@code state.NAME}). */
final class SqlSchedulerValues implements SchedulerStore {

    private final SqlDatabase db;
    private final String saveState;
    private volatile String pilotTag;

    SqlSchedulerValues(SqlDatabase db) {
        this.db = db;
        this.saveState = db.dialect().upsert("meta", List.of("name", "val"), List.of("name"));
    }

    /**
     * Made on the database's first open from 6 random letters and digits, then read back ever after;
     * kept here once known (it never changes), since placement asks for it every time it looks.
     */
    @Override
    public String pilotTag() {
        String known = pilotTag;
        if (known != null) {
            return known;
        }
        return db.inTransaction(() -> {
            List<String> kept = db.query("SELECT val FROM meta WHERE name = 'pilot_tag'", List.of(), rs -> rs.getString(1));
            if (!kept.isEmpty()) {
                pilotTag = kept.get(0);
                return kept.get(0);
            }
            SecureRandom random = new SecureRandom();
            StringBuilder tag = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                tag.append(Character.forDigit(random.nextInt(36), 36));
            }
            db.update("INSERT INTO meta (name, val) VALUES ('pilot_tag', ?)", List.of(tag.toString()));
            db.afterCommit(() -> pilotTag = tag.toString()); // known for good once it is on disk
            return tag.toString();
        });
    }

    @Override
    public Optional<String> state(String name) {
        return db.query("SELECT val FROM meta WHERE name = ?", List.of("state." + name), rs -> rs.getString(1)).stream()
                .findFirst();
    }

    @Override
    public void saveState(String name, String value) {
        db.update(saveState, List.of("state." + name, value));
    }
}
