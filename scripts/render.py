#!/usr/bin/env python3
"""Render a Flafka agent template exactly as Ansible's template module would.

Usage: render.py TEMPLATE DEFAULTS_YML [VARS_JSON]

Loads the defaults file as Ansible's include_vars does, overlays the variables of the optional JSON file (as
extra vars would), and renders TEMPLATE with the settings of Ansible's template module: trim_blocks on,
lstrip_blocks off, trailing newline kept, and undefined variables an error (StrictUndefined). The output goes to
stdout as UTF-8. RenderParityTest compares it byte for byte with `flafka render`; needs the packages pinned in
requirements.txt (scripts/setup installs them).
"""
import json
import os
import sys

import jinja2
import yaml


def render(template_path, defaults_path, vars_path=None):
    with open(defaults_path, encoding="utf-8") as defaults_file:
        variables = yaml.safe_load(defaults_file) or {}
    if vars_path:
        with open(vars_path, encoding="utf-8") as vars_file:
            variables.update(json.load(vars_file))
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(os.path.dirname(os.path.abspath(template_path))),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=False,
        keep_trailing_newline=True,
        autoescape=False,
    )
    return environment.get_template(os.path.basename(template_path)).render(variables)


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        text = render(*argv[1:])
    except jinja2.TemplateError as error:
        print(f"render.py: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
