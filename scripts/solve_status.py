#!/usr/bin/python3
"""hta solve --json on standard input to one line for the bench tables:
the status (optimal(ROW), ROW the first row with status optimal or
bound, /CBC or /GLPK when its note names the engine that proved, else
the best row and ",bound"; or open(lb=BOUND)) and the best makespan;
"error -" when the input is not JSON, "open -" without a best."""
import json
import sys

try:
    r = json.load(sys.stdin)
except ValueError:
    print("error -")
    sys.exit()
b = r["best"]
if b is None:
    print("open -")
    sys.exit()
by = [x["algorithm"] + ("/CBC" if " by CBC" in x["note"] else
                        "/GLPK" if " by GLPK" in x["note"] else "")
      for x in r["results"] if x["status"] in ("optimal", "bound")]
by = by[0] if by else b["algorithm"] + ",bound"
print(("optimal(%s)" % by if b["proven_optimal"] else
       "open(lb=%.6g)" % r["lower_bound"]), b["makespan"])
