"""FudgeTable's rules: pure Python, no Django. Every number the app shows comes from here."""
