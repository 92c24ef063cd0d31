-- KOALA's scheduler store on H2, as every release before Flyway kept it made it; every statement is
-- idempotent, so a database those releases made (any of them) is brought up to date by it too.

CREATE TABLE IF NOT EXISTS jobs (id BIGINT PRIMARY KEY, name VARCHAR, source VARCHAR, jdf CLOB,
  kind VARCHAR, state VARCHAR, policy VARCHAR, priority VARCHAR, place_tries INT, claim_failures INT,
  waiting VARCHAR, submitted_at TIMESTAMP WITH TIME ZONE);
CREATE TABLE IF NOT EXISTS nodes (id VARCHAR PRIMARY KEY, job BIGINT, component INT, node_rank INT,
  site VARCHAR, state VARCHAR, pilot VARCHAR, host VARCHAR, exit_status INT, token VARCHAR,
  submitted_at TIMESTAMP WITH TIME ZONE, attempt INT);
CREATE INDEX IF NOT EXISTS nodes_job ON nodes(job);
CREATE TABLE IF NOT EXISTS transitions (job BIGINT, seq BIGINT AUTO_INCREMENT PRIMARY KEY,
  at TIMESTAMP WITH TIME ZONE, from_state VARCHAR, to_state VARCHAR, event VARCHAR, reason VARCHAR);
CREATE INDEX IF NOT EXISTS transitions_job ON transitions(job);
CREATE TABLE IF NOT EXISTS agents (site VARCHAR PRIMARY KEY, url VARCHAR, pid BIGINT);
ALTER TABLE agents ADD COLUMN IF NOT EXISTS secret VARCHAR;
CREATE TABLE IF NOT EXISTS frameworks (id BIGINT PRIMARY KEY, name VARCHAR, jdf_file VARCHAR, jdf CLOB,
  policy VARCHAR, parameters CLOB, runner VARCHAR, master_node VARCHAR, master_address VARCHAR,
  registered_at TIMESTAMP WITH TIME ZONE);
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS owner VARCHAR;
ALTER TABLE frameworks ADD COLUMN IF NOT EXISTS runner_state VARCHAR;
CREATE TABLE IF NOT EXISTS meta (name VARCHAR PRIMARY KEY, val VARCHAR);
CREATE SEQUENCE IF NOT EXISTS job_ids START WITH 1;
ALTER SEQUENCE job_ids CACHE 1024;
CREATE TABLE IF NOT EXISTS components (job BIGINT, idx INT, spec CLOB, PRIMARY KEY (job, idx));
CREATE TABLE IF NOT EXISTS answers (owner VARCHAR, request VARCHAR, answer CLOB,
  at TIMESTAMP WITH TIME ZONE, PRIMARY KEY (owner, request));
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS ended_at TIMESTAMP WITH TIME ZONE;
CREATE INDEX IF NOT EXISTS jobs_ended ON jobs(ended_at);
CREATE TABLE IF NOT EXISTS node_spans (node VARCHAR, attempt INT, job BIGINT, component INT, site VARCHAR,
  arrived_at TIMESTAMP WITH TIME ZONE, started_at TIMESTAMP WITH TIME ZONE,
  ended_at TIMESTAMP WITH TIME ZONE, ended_as VARCHAR, cpu_seconds DOUBLE PRECISION,
  PRIMARY KEY (node, attempt));
CREATE INDEX IF NOT EXISTS node_spans_job ON node_spans(job);
CREATE TABLE IF NOT EXISTS usage_records (job BIGINT PRIMARY KEY, record VARCHAR,
  written_at TIMESTAMP WITH TIME ZONE);
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS daemon CLOB;
CREATE TABLE IF NOT EXISTS worker_tallies (job BIGINT PRIMARY KEY, busy_seconds DOUBLE PRECISION,
  cpu_seconds DOUBLE PRECISION, reported_seconds DOUBLE PRECISION);
CREATE TABLE IF NOT EXISTS allocation_roles (job BIGINT PRIMARY KEY, roles VARCHAR);
ALTER TABLE answers ADD COLUMN IF NOT EXISTS asked CLOB;

ALTER TABLE nodes ADD COLUMN IF NOT EXISTS gpus VARCHAR;
CREATE TABLE IF NOT EXISTS usage_totals (owner VARCHAR NOT NULL, kind VARCHAR NOT NULL,
  records BIGINT NOT NULL, node_seconds DOUBLE PRECISION NOT NULL, core_seconds DOUBLE PRECISION NOT NULL,
  memory_gb_seconds DOUBLE PRECISION NOT NULL, gpu_seconds DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (owner, kind));
