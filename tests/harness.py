"""harness.py - what the Python tests share: each check printed as it is
made ("ok" or "FAIL" with the detail), and the tally as the last line and
the exit status (1 when any check failed).

    from harness import expect, finish
    expect(result == wanted, 'what was checked', 'detail shown on failure')
    finish()
"""
import sys

failures = checks = 0


def expect(ok, what, detail=''):
    global failures, checks
    checks += 1
    print('%s %s %s' % ('ok  ' if ok else 'FAIL', what, detail if not ok else ''), flush=True)
    failures += not ok
    return ok


def finish():
    print('%d passed, %d failed' % (checks - failures, failures))
    sys.exit(1 if failures else 0)
