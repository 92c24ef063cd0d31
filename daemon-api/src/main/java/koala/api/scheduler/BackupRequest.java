package koala.api.scheduler;

/** {@code POST /admin/backup}: back the scheduler's database up now, into {@code file} (a plain name; null: named after the time). */
public record BackupRequest(String file) {
}
