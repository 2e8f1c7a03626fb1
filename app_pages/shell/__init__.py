"""The app's frame around every page: the page registry and navigation (registry, page_scripts), the sidebar, links
that reopen a view (links, link_values), presentation mode, and the text every page speaks in (text)."""
