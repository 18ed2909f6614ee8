#!/usr/bin/env python
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fudgetable.settings")
    from django.core.management import execute_from_command_line

    from fudgetable.hosting import settings_or_exit

    settings_or_exit()

    execute_from_command_line(sys.argv)
