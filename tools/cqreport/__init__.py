"""qualreport: a fleet's cryptoqual serial logs turned into answers.

Modules: parse (captures, boots, records), verdict (a boot's verdict),
identity (the box key), baseline, compare, plot, html, db; cli is the
command line of tools/qualreport."""
