"""The command line, one module per verb group (`main` assembles them; `checkout-consent` is
`checkout_consent.cli.main:main`)."""
