"""The front-end audits: ``python -m tests.audit --help``.

Lighthouse 12.2.3 and axe-core, both pinned in ``package.json`` beside this file (``npm ci``
installs them), drive Debian's Chromium over the ten pages of :mod:`tests.audit.pages`,
served by daphne in production mode (DEBUG off, collected static files). See ``docs/web.md``.
"""
