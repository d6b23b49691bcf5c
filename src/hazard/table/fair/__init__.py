"""The fair dice: commit-reveal, seeds, server keys, signing, verification."""
