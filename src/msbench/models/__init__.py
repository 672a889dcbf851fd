"""Model wrappers (CAM++, DNSMOS P.835, NISQA) and their weights. Heavy imports stay inside."""
