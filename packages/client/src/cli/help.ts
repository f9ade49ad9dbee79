export const HELP = `insp-sync: sync employees from a CSV, JSON or JSONL file to the Inspection Service.

Usage: insp-sync <input> [options]

Input
  <input>                     .csv/.tsv (header line), .json (array of objects), .jsonl/.ndjson
  -m, --mapping <file>        mapping file (JSON): columns to fields, roles, groups, sites, status
                              (without one, columns named like fields are used as they are)
  --format csv|json|jsonl     when the file name does not tell
  --delimiter <c>             CSV delimiter (default "," or a tab for .tsv; "\\t" for a tab)
  --json-key <key>            JSON: the array is under this top-level key, e.g. employees

Service (credentials from the environment)
  INSP_URL, INSP_CLIENT_ID, INSP_CLIENT_SECRET
  --url <url>, --client-id <id>, --client-secret-file <file>   instead of the variables
                              (the secret is never accepted on the command line)

Run
  --state <file>              resume state (default <input>.insp-sync-state.json)
  --errors <file>             errors and warnings CSV (default <input>.errors.csv;
                              <input>.dry-run.errors.csv for a dry run)
  --restart                   ignore an unfinished state and start over
  --force                     resume although the input or mapping changed
  --dry-run                   ?dryRun=true: report what would happen, write nothing
  --async                     send batches with Prefer: respond-async and poll for the outcome
  --concurrency <n>           batches in flight at once (default 2)
  --batch-size <n>            employees per request, at most 500 (default 500)
  --max-attempts <n>          attempts per request on 429/502/503/504 and network errors (default 8)
  --progress-interval <s>     seconds between progress lines when stderr is not a terminal (default 5)

Snapshot sessions (employees in scope that the file does not list are deactivated on commit)
  --snapshot                  send every batch in a session, then commit it
  --scope-department <name>   --scope-site <id>   --scope-metadata <key=value>
  --commit-dry-run            only show who the commit would deactivate (the session stays open)

Exit codes
  0    every row synced without errors (warnings allowed)
  1    finished, but some rows had errors (see the errors CSV)
  2    usage or configuration error (arguments, unreadable input or mapping, state of another file)
  3    snapshot commit quarantined: an administrator must approve the deactivations
  4    authentication failed (client id or secret refused, or no employees:sync scope)
  5    the service kept failing (retries exhausted, unreachable, server error)
  130  interrupted (SIGINT/SIGTERM): state saved, run the same command again to resume
`;
