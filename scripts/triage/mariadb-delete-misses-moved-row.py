"""Independent check of `tests/sdg/mariadb-rc-delete-misses-row-a-co-waiter-moved.sql` (fuzz
--target mariadb --seed 7002, case 5315): at READ COMMITTED a DELETE that waited for a row
another waiter then moved (its primary key changed) deletes nothing, although a row it matches
existed throughout: MDEV-27992's class, with a second waiter moving the row instead of the
holder. Plain PyMySQL (`pip install pymysql`), no txhunt; each session is a connection of its
own, and a waiting statement runs on a thread, seen waiting in INNODB_TRX before the next
step.

Usage: start a private server with `txhunt server mariadb`, then
    python3 scripts/triage/mariadb-delete-misses-moved-row.py PORT [LEVEL] [SCENARIO]
SCENARIO `5315` (the default) is the case above; `12675` is case 12675 of `fuzz --target
mariadb --seed 7010` (READ UNCOMMITTED), reduced: the holder's failed INSERT of the only row
keeps its lock, `UPDATE t SET k = 1` and then `DELETE FROM t` wait for it, and the DELETE,
without a WHERE clause, deletes nothing. It creates and drops its own database, `movecheck`.
Exit status 1 when the DELETE deleted nothing and left a row it matches."""
import sys, threading, time, pymysql

port = int(sys.argv[1])
level = sys.argv[2] if len(sys.argv) > 2 else "READ COMMITTED"
# Per scenario: the rows, the holder's failing statement, the mover's and the DELETE's, and
# which keys the DELETE matches.
SCENARIOS = {
    "5315": ("(-1), (3)", "UPDATE t SET k = -1", "UPDATE t SET k = 2 WHERE k IN (3)",
             "DELETE FROM t WHERE k > 1", lambda k: k > 1),
    "12675": ("(347)", "INSERT INTO t VALUES (347)", "UPDATE t SET k = 1", "DELETE FROM t",
              lambda k: True),
}
rows, holder, mover, deleter, matches = SCENARIOS[sys.argv[3] if len(sys.argv) > 3 else "5315"]


def connect(database=None):
    c = pymysql.connect(host="127.0.0.1", port=port, user="root", database=database, autocommit=True)
    c.cursor().execute(f"SET SESSION TRANSACTION ISOLATION LEVEL {level}")
    return c


admin = connect()
admin.cursor().execute("DROP DATABASE IF EXISTS movecheck")
admin.cursor().execute("CREATE DATABASE movecheck")
setup = connect("movecheck").cursor()
setup.execute("CREATE TABLE t (k INT NOT NULL, PRIMARY KEY (k)) ENGINE=InnoDB")
setup.execute(f"INSERT INTO t VALUES {rows}")
t1, t5, t2 = (connect("movecheck") for _ in range(3))
results = {}


def waiting(conn, name, sql):
    """Runs `sql` on a thread; returns once the server shows it waiting for a lock."""
    def run():
        try:
            results[name] = conn.cursor().execute(sql)
        except pymysql.MySQLError as e:
            results[name] = f"error {e.args[0]}"
    thread = threading.Thread(target=run)
    thread.start()
    probe = admin.cursor()
    # InnoDB refreshes what INNODB_TRX shows only when it was not read for 0.1 s.
    for _ in range(50):
        probe.execute("SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_query = %s AND trx_state = 'LOCK WAIT'", (sql,))
        if probe.fetchone()[0]:
            return thread
        if not thread.is_alive():
            sys.exit(f"`{sql}` did not wait: {results.get(name)}")
        time.sleep(0.2)
    sys.exit(f"`{sql}` neither waited nor ended")


c1 = t1.cursor()
c1.execute("BEGIN")
try:
    c1.execute(holder)
    sys.exit(f"t1's {holder} should fail with a duplicate key")
except pymysql.MySQLError as e:
    print(f"t1 {holder}: error {e.args[0]}")
update = waiting(t5, "t5", mover)
delete = waiting(t2, "t2", deleter)
c1.execute("COMMIT")
update.join()
delete.join()
setup.execute("SELECT k FROM t ORDER BY k")
final = [k for (k,) in setup.fetchall()]
print(f"t5 {mover}: {results['t5']}; t2 {deleter}: {results['t2']}; final {final}")
admin.cursor().execute("DROP DATABASE movecheck")
if results["t2"] == 0 and any(matches(k) for k in final):
    print("the DELETE deleted nothing, and a row it matches is left")
    sys.exit(1)
