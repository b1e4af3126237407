# SPDX-License-Identifier: GPL-2.0
"""The parts of scripts/results.py, one job per module."""
