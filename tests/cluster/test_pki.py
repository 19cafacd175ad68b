"""Certificates and token of the local control plane."""

import datetime as dt
import ipaddress

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import hashes

from conformance.cluster import pki


@pytest.fixture(scope="module")
def keys() -> pki.Pki:
    return pki.generate()


def _verify(issuer: x509.Certificate, cert: x509.Certificate) -> None:
    issuer.public_key().verify(cert.signature, cert.tbs_certificate_bytes, ec.ECDSA(hashes.SHA256()))


def test_serving_cert_is_signed_by_the_ca_and_names_loopback(keys):
    ca = x509.load_pem_x509_certificate(keys.ca_cert)
    serving = x509.load_pem_x509_certificate(keys.serving_cert)
    _verify(ca, serving)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    sans = serving.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert ipaddress.ip_address("127.0.0.1") in sans.get_values_for_type(x509.IPAddress)
    assert "localhost" in sans.get_values_for_type(x509.DNSName)


def test_a_cert_from_another_ca_does_not_verify(keys):
    other = pki.generate()
    ca = x509.load_pem_x509_certificate(keys.ca_cert)
    with pytest.raises(Exception):
        _verify(ca, x509.load_pem_x509_certificate(other.serving_cert))


def test_validity_starts_before_now_and_lasts_the_configured_time():
    now = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    cert = x509.load_pem_x509_certificate(pki.generate(now).serving_cert)
    assert cert.not_valid_before_utc < now
    assert cert.not_valid_after_utc == (now + pki.VALIDITY).replace(microsecond=0)


def test_tokens_are_fresh_and_the_auth_file_puts_the_user_in_system_masters(keys):
    assert keys.token != pki.generate().token and len(keys.token) >= 32
    line = pki.token_auth_csv(keys.token)
    assert line.startswith(keys.token + ",") and line.rstrip().endswith('"system:masters"')
