-- KOALA's scheduler store on PostgreSQL: the tables of the H2 store's version 1, as they are after
-- it (text for H2's VARCHAR and CLOB). A later version is a V<n>__<what>.sql here and in ../h2.

CREATE TABLE jobs (id BIGINT PRIMARY KEY, name TEXT, source TEXT, jdf TEXT, kind TEXT, state TEXT,
  policy TEXT, priority TEXT, place_tries INT, claim_failures INT, waiting TEXT,
  submitted_at TIMESTAMP WITH TIME ZONE, owner TEXT, ended_at TIMESTAMP WITH TIME ZONE);
CREATE INDEX jobs_ended ON jobs(ended_at);
CREATE SEQUENCE job_ids START WITH 1 CACHE 1;

CREATE TABLE nodes (id TEXT PRIMARY KEY, job BIGINT, component INT, node_rank INT, site TEXT, state TEXT,
  pilot TEXT, host TEXT, exit_status INT, token TEXT, submitted_at TIMESTAMP WITH TIME ZONE, attempt INT,
  daemon TEXT, gpus TEXT);
CREATE INDEX nodes_job ON nodes(job);
CREATE TABLE node_spans (node TEXT, attempt INT, job BIGINT, component INT, site TEXT,
  arrived_at TIMESTAMP WITH TIME ZONE, started_at TIMESTAMP WITH TIME ZONE,
  ended_at TIMESTAMP WITH TIME ZONE, ended_as TEXT, cpu_seconds DOUBLE PRECISION,
  PRIMARY KEY (node, attempt));
CREATE INDEX node_spans_job ON node_spans(job);

CREATE TABLE transitions (job BIGINT, seq BIGINT PRIMARY KEY, at TIMESTAMP WITH TIME ZONE,
  from_state TEXT, to_state TEXT, event TEXT, reason TEXT);
CREATE INDEX transitions_job ON transitions(job);

CREATE TABLE agents (site TEXT PRIMARY KEY, url TEXT, pid BIGINT, secret TEXT);
CREATE TABLE frameworks (id BIGINT PRIMARY KEY, name TEXT, jdf_file TEXT, jdf TEXT, policy TEXT,
  parameters TEXT, runner TEXT, master_node TEXT, master_address TEXT,
  registered_at TIMESTAMP WITH TIME ZONE, runner_state TEXT);
CREATE TABLE meta (name TEXT PRIMARY KEY, val TEXT);
CREATE TABLE components (job BIGINT, idx INT, spec TEXT, PRIMARY KEY (job, idx));
CREATE TABLE allocation_roles (job BIGINT PRIMARY KEY, roles TEXT);
CREATE TABLE answers (owner TEXT, request TEXT, answer TEXT, at TIMESTAMP WITH TIME ZONE, asked TEXT,
  PRIMARY KEY (owner, request));

CREATE TABLE usage_records (job BIGINT PRIMARY KEY, record TEXT, written_at TIMESTAMP WITH TIME ZONE);
CREATE TABLE worker_tallies (job BIGINT PRIMARY KEY, busy_seconds DOUBLE PRECISION,
  cpu_seconds DOUBLE PRECISION, reported_seconds DOUBLE PRECISION);
CREATE TABLE usage_totals (owner TEXT NOT NULL, kind TEXT NOT NULL,
  records BIGINT NOT NULL, node_seconds DOUBLE PRECISION NOT NULL, core_seconds DOUBLE PRECISION NOT NULL,
  memory_gb_seconds DOUBLE PRECISION NOT NULL, gpu_seconds DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (owner, kind));
