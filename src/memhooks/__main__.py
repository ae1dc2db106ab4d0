from memhooks.cli.main import main

raise SystemExit(main())
