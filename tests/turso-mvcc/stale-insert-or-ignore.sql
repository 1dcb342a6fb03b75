-- id: turso-mvcc-stale-insert-or-ignore
-- title: INSERT OR IGNORE decides on its snapshot: a key deleted by a concurrent commit still conflicts
-- dbms: Turso 0.8.3 (MVCC mode)
-- isolation: snapshot
-- Found by `txhunt fuzz --target turso-mvcc --seed 2026` (case 9806), minimized by deleting
-- statements while WSS still flagged it. t2's snapshot (taken at BEGIN) still has key 'Xab',
-- which t4 deleted and committed meanwhile, so t2 skips that row; t2 writes no row t4 wrote,
-- so both commit. No serial order gives this state, but snapshot isolation does: the replay
-- must run t2 on its own snapshot (the initial state), not after t4.
/* init */ CREATE TABLE t0 (a0 TEXT, a1 VARCHAR(10) NOT NULL, PRIMARY KEY (a1));
/* init */ INSERT INTO t0 (a0, a1) VALUES ('daeY', 'ee'), ('Xce', 'Xab'), ('ec', 'ad'), ('XY', 'eea');
/* t2 */ BEGIN;
/* t4 */ DELETE FROM t0 WHERE (a1 <> '');  -- expect: affected 4
/* t2 */ INSERT OR IGNORE INTO t0 (a0, a1) VALUES ('ec', 'ecb'), ('daeY', 'Xab');  -- expect: affected 1
/* t2 */ COMMIT;
/* t3 */ SELECT a0 FROM t0 WHERE (a0 >= 'Xce');  -- expect: rows [('ec')]
-- expect final: t0 = [('ec', 'ecb')]
