# Sphinx configuration of the flux manual:
#   sphinx-build -W -b html doc OUTDIR
# (Debian package python3-sphinx; test/python/test_doc.py builds it so).

project = "flux"
author = "the flux authors"
copyright = "the flux authors"

extensions = ["sphinx.ext.autosectionlabel"]
# Sections are referenced as :ref:`page:Section Title`.
autosectionlabel_prefix_document = True

root_doc = "index"
master_doc = "index"
source_suffix = ".rst"
# Included pieces are not pages of their own; flux.h is a Doxygen group page.
exclude_patterns = ["**/*.rst.inc", "figures/*.rst", "_build", "flux.h"]

highlight_language = "none"
html_theme = "alabaster"
html_static_path = []
html_show_sourcelink = False
