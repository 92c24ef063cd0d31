-- When the leader took its epoch's advisory lock in the server's present life: a standby that finds the
-- lock free takes over at once only when it was taken after the server last started (a restart lets every
-- lock go without the leader dying).
ALTER TABLE leader ADD COLUMN locked_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT '-infinity';
