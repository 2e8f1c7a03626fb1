from .score import main

raise SystemExit(main())
