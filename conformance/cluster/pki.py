"""Certificates and the token for the local control plane: a CA, the apiserver's serving cert, a
service-account key pair, all generated fresh by `cluster up` and never leaving the state dir."""

from __future__ import annotations

import datetime as dt
import ipaddress
import secrets
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# Long enough that a control plane left up over a holiday still works; it is thrown away on `down`.
VALIDITY = dt.timedelta(days=30)
SERVING_IPS = ("127.0.0.1",)
SERVING_DNS = ("localhost",)


@dataclass(frozen=True)
class Pki:
    """PEM bytes for every file the apiserver and its clients need."""

    ca_cert: bytes
    ca_key: bytes
    serving_cert: bytes
    serving_key: bytes
    sa_public: bytes
    sa_private: bytes
    token: str


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def generate(now: dt.datetime | None = None) -> Pki:
    """A new CA, a serving cert for 127.0.0.1/localhost signed by it, an SA key pair and a token."""
    now = now or dt.datetime.now(dt.timezone.utc)
    # Backdated a minute so a client whose clock is slightly behind still accepts the cert.
    start, end = now - dt.timedelta(minutes=1), now + VALIDITY
    ca_key, serving_key, sa_key = _key(), _key(), _key()
    ca_name = _name("sched-conformance-ca")
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(start).not_valid_after(end)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, encipher_only=False,
                                       decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    sans = [x509.IPAddress(ipaddress.ip_address(ip)) for ip in SERVING_IPS] + [x509.DNSName(d) for d in SERVING_DNS]
    serving = (x509.CertificateBuilder().subject_name(_name("kube-apiserver")).issuer_name(ca_name)
               .public_key(serving_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(end)
               .add_extension(x509.SubjectAlternativeName(sans), critical=False)
               .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .sign(ca_key, hashes.SHA256()))
    return Pki(
        ca_cert=ca.public_bytes(serialization.Encoding.PEM), ca_key=_key_pem(ca_key),
        serving_cert=serving.public_bytes(serialization.Encoding.PEM), serving_key=_key_pem(serving_key),
        sa_public=sa_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo),
        sa_private=_key_pem(sa_key), token=secrets.token_hex(24))


def token_auth_csv(token: str) -> str:
    """The apiserver's `--token-auth-file`: one admin user in system:masters."""
    return f'{token},sched-conformance-admin,sched-conformance-admin,"system:masters"\n'


__all__ = ["Pki", "VALIDITY", "generate", "token_auth_csv"]
