"""One process's async side of the live table: the socket and what it pushes.

``consumer`` is the socket (receive, parse, hand to the services, forward pushes);
``delivery`` takes a change its commit announced (``tables.play.events``) to this process's
pages and to the channel layer; ``table_threads`` is where a table's database work runs;
``pushes`` renders one change once per process for all its pages; ``heartbeat`` beats every page and
catches up a page that missed a change; ``deadline_once`` runs a passed deadline once per
process; ``loop_local`` keeps objects that belong to one event loop; ``limits`` are a
socket's input rate and openings (its slots are ``tables.play.page_leases``) and how full the
process is; ``scope`` reads
a socket's language, origin and CSRF token; ``routing`` is the URL the socket answers on.

May import: ``tables.rooms``, ``tables.screen``, ``tables.play``, ``tables.models``.
"""
