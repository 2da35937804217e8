"""Validates built RO-Crates with the official validator, offline.

Usage: roc-validate.py CACHE DIR[:SKIP,SKIP...] ...

roc-validator (PyPI `roc-validator`, run by .ci/run from a pinned venv)
fetches the crate's JSON-LD context over HTTP. Offline (`--offline`) it
serves every request from its requests-cache database and nothing else;
this script puts the RO-Crate 1.3 context into that database first, from
the copy the `rocrate` package ships (rocrate/data/ro-crate.jsonld, whose
own @id is https://w3id.org/ro/crate/1.3/context), through a transport
adapter that answers for that one URL and refuses every other, so nothing
reaches the network while the cache is made either.

Each DIR is validated against profile ro-crate-1.3, which loads the
ro-crate-1.2 profile and runs its requirements with the 1.3 context check,
at severity RECOMMENDED (the REQUIRED checks included). SKIP names a check
the crate cannot pass truthfully (a ROR or ORCID identifier nobody has);
.ci/run gives the reason for each. Prints the counts by severity and every
issue; exits 1 if any crate fails.
"""

import io
import json
import pathlib
import subprocess
import sys

import rocrate
from requests.adapters import HTTPAdapter
from requests_cache import CachedSession
from urllib3.response import HTTPResponse

CONTEXT = "https://w3id.org/ro/crate/1.3/context"
PROFILE = "ro-crate-1.3"
VALIDATOR = pathlib.Path(sys.executable).with_name("rocrate-validator")


class PackagedContext(HTTPAdapter):
    """Answers a GET of the RO-Crate 1.3 context from the rocrate package."""

    def send(self, request, **kwargs):
        if request.url != CONTEXT:
            raise RuntimeError(f"no network: {request.url}")
        body = (pathlib.Path(rocrate.__file__).parent / "data" / "ro-crate.jsonld").read_bytes()
        assert json.loads(body)["@id"] == CONTEXT, "the packaged context is not RO-Crate 1.3's"
        raw = HTTPResponse(
            body=io.BytesIO(body),
            headers={"Content-Type": "application/ld+json"},
            status=200,
            reason="OK",
            preload_content=False,
            request_url=CONTEXT,
            decode_content=False,
        )
        return self.build_response(request, raw)


def seed(cache):
    # The same backend and settings as rocrate_validator/utils/http.py.
    session = CachedSession(
        cache_name=cache,
        backend="sqlite",
        expire_after=-1,
        allowable_methods=("GET",),
        allowable_codes=(200, 302, 404),
    )
    session.mount("https://", PackagedContext())
    session.mount("http://", PackagedContext())
    response = session.get(CONTEXT, headers={"Accept": "application/ld+json, application/json"})
    response.raise_for_status()


def validate(cache, directory, skips):
    command = [
        str(VALIDATOR), "--no-interactive", "--disable-color", "validate",
        "--offline", "--cache-path", cache,
        "--profile-identifier", PROFILE,
        "--requirement-severity", "recommended",
        "--output-format", "json",
    ]
    for check in skips:
        command += ["--skip-checks", check]
    command.append(directory)
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(run.stdout + run.stderr)
        return False
    stats = report["statistics"]
    failed = {"REQUIRED": 0, "RECOMMENDED": 0}
    for issue in report["issues"]:
        failed[issue["severity"]] = failed.get(issue["severity"], 0) + 1
    by_severity = stats["total_checks_by_severity"]
    print(
        f"{directory}: profiles {', '.join(stats['profiles'])}; "
        f"REQUIRED {by_severity['REQUIRED']} checks, {failed['REQUIRED']} issues; "
        f"RECOMMENDED {by_severity['RECOMMENDED']} checks, {failed['RECOMMENDED']} issues; "
        f"skipped by name: {', '.join(skips) or 'none'}; "
        f"{'passed' if report['passed'] else 'FAILED'}"
    )
    for issue in report["issues"]:
        print(f"  {issue['severity']} {issue['check']['identifier']}: {issue['message']} ({issue.get('violatingEntity')})")
    return bool(report["passed"]) and run.returncode == 0


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cache = argv[1]
    seed(cache)
    ok = True
    for arg in argv[2:]:
        directory, _, skips = arg.partition(":")
        ok = validate(cache, directory, [s for s in skips.split(",") if s]) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(sys.argv)
