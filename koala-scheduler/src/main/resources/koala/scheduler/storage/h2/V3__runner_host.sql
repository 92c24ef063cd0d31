-- where each instance's runner runs, and which start of it is in force: a runner of another host is
-- judged by its health route alone, and one that was replaced has its calls refused
ALTER TABLE frameworks ADD COLUMN IF NOT EXISTS runner_host VARCHAR;
ALTER TABLE frameworks ADD COLUMN IF NOT EXISTS runner_generation BIGINT DEFAULT 0 NOT NULL;
