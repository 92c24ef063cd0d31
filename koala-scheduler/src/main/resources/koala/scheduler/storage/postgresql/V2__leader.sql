-- The leader's lease: which of the schedulers that share this database leads, until when (the
-- server's clock, the one clock they all read), and its fencing epoch, which every write
-- transaction of the leader checks before it commits. One row, there from the start.
CREATE TABLE leader (id INT PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL, address TEXT NOT NULL,
  epoch BIGINT NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NOT NULL);
INSERT INTO leader VALUES (1, '', '', 0, '-infinity');
