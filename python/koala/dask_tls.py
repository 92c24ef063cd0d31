"""Dask's TLS for one KOALA instance: a certificate authority made for the instance, and a key and
certificate it signed, which the instance's Dask scheduler, its workers and its owner's client
present to one another.

Why. A Dask scheduler runs whatever its clients send, and a worker whatever its peers send, as
the user who runs them: without TLS, every user who reaches a node's port (everyone on a grid,
whose ``koala frameworks`` lists each instance's master) is the instance's owner there. Dask's TLS
is mutual (the listener requires the peer's certificate, signed by the CA it was given), so with
these credentials the scheduler and every worker refuse a peer that does not hold the instance's
key: a plain connection fails its handshake, a certificate from any other CA is refused.

How. :func:`make_instance_tls` makes the CA and the instance's key and certificate in memory,
keeps the CA's certificate and throws its key away (no certificate the instance accepts can be
made after that, even by the owner), and writes three files into a new directory of the owner's,
``~OWNER/.koala/dask/tls-NAME-XXXX/`` (0700): ``ca.pem`` (the CA's certificate), ``instance.pem``
(the certificate) and ``instance-key.pem`` (the key, 0600). The owner's home is where a cluster's
nodes find the owner's files (KOALA's pilots run as the owner on local sites), and only the owner
reads the directory. The nodes' commands name the files (``--tls-ca-file``, ``--tls-cert``,
``--tls-key``): the key is never on a command line nor in an environment. Run by root acting for
a user (``KOALA_AS``, the testbed's way), the directory and files are that user's.

Keys are ECDSA P-256: made in a millisecond, accepted by TLS 1.2 and 1.3. The certificates are
valid from an hour ago (clocks of a grid's hosts differ) for ten years: an instance outlives no
such span, and a certificate that expired under a running instance would stop its new
connections without a word; the credentials live as long as the instance's files, which go with
the cluster.
"""

from __future__ import annotations

import datetime
import os
import pwd
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

__all__ = ["InstanceTls", "Credentials", "make_credentials", "make_instance_tls", "instance_owner", "tls_parent"]

#: How long before its making a certificate is valid: the grid's hosts' clocks may be behind this one's.
VALID_BEFORE = datetime.timedelta(hours=1)
#: How long a certificate is valid: longer than any instance lives.
VALID_FOR = datetime.timedelta(days=3650)


@dataclass(frozen=True)
class Credentials:
    """PEM texts: the CA's certificate, and the instance's certificate and key (the CA's key is not kept)."""
    ca_cert: bytes
    cert: bytes
    key: bytes


def make_credentials(name: str, now: Optional[datetime.datetime] = None) -> Credentials:
    """A new CA for instance ``name`` and a key and certificate it signed, for both ends of a TLS
    connection (server and client authentication); the CA's key is dropped."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError as e:
        raise ImportError("Dask's TLS for a KOALA instance needs the cryptography package (Debian: "
                          "apt-get install python3-cryptography)") from e

    now = now or datetime.datetime.now(datetime.timezone.utc)
    label = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40] or "dask"
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "KOALA"),
                         x509.NameAttribute(NameOID.COMMON_NAME, f"koala-dask {label} CA")])
    ca_id = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca_cert = (x509.CertificateBuilder()
               .subject_name(ca_name).issuer_name(ca_name)
               .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - VALID_BEFORE).not_valid_after(now + VALID_FOR)
               .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                            crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(ca_id, critical=False)
               .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "KOALA"),
                                     x509.NameAttribute(NameOID.COMMON_NAME, f"koala-dask {label}")]))
            .issuer_name(ca_name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - VALID_BEFORE).not_valid_after(now + VALID_FOR)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=True, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("dask-internal")]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_id), critical=False)
            .sign(ca_key, hashes.SHA256()))
    return Credentials(ca_cert.public_bytes(serialization.Encoding.PEM), cert.public_bytes(serialization.Encoding.PEM),
                       key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))


@dataclass(frozen=True)
class InstanceTls:
    """The files of an instance's TLS credentials (see the module's text)."""
    directory: Path
    ca_file: Path
    cert_file: Path
    key_file: Path

    @classmethod
    def in_directory(cls, directory: os.PathLike) -> "InstanceTls":
        d = Path(directory)
        return cls(d, d / "ca.pem", d / "instance.pem", d / "instance-key.pem")

    def options(self) -> list:
        """The options that give ``dask-scheduler`` or ``dask-worker`` these credentials (file names, not the key)."""
        return ["--tls-ca-file", str(self.ca_file), "--tls-cert", str(self.cert_file), "--tls-key", str(self.key_file)]

    def security(self):
        """Dask's ``Security`` for a client of the instance (its owner's): TLS required, the instance's CA and key."""
        from distributed.security import Security
        return Security(require_encryption=True, tls_ca_file=str(self.ca_file), tls_client_cert=str(self.cert_file),
                        tls_client_key=str(self.key_file))

    def remove(self) -> None:
        """Deletes the directory and its files (the instance has ended)."""
        shutil.rmtree(self.directory, ignore_errors=True)


def instance_owner(koala_env: Optional[Mapping[str, str]] = None) -> pwd.struct_passwd:
    """Whose the instance is: the user this process runs as, or, for root, the user it acts for
    (``KOALA_AS`` in ``koala_env`` or this process's environment) when it names one."""
    me = pwd.getpwuid(os.getuid())
    if os.getuid() != 0:
        return me
    acting = ((koala_env or {}).get("KOALA_AS") or os.environ.get("KOALA_AS") or "").strip()
    return pwd.getpwnam(acting) if acting else me


def tls_parent(owner: pwd.struct_passwd) -> Path:
    """Where an owner's instances' TLS directories go: ``~OWNER/.koala/dask``, which the nodes see."""
    return Path(owner.pw_dir) / ".koala" / "dask"


def make_instance_tls(name: str, parent: Optional[os.PathLike] = None,
                      owner: Optional[pwd.struct_passwd] = None) -> InstanceTls:
    """Makes new credentials for instance ``name`` and writes them into a new directory under ``parent``
    (default: :func:`tls_parent` of ``owner``, this process's user by default), the owner's alone."""
    owner = owner or pwd.getpwuid(os.getuid())
    parent = Path(parent) if parent is not None else tls_parent(owner)
    credentials = make_credentials(name)
    _private_dirs(parent, owner)
    label = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40]
    directory = Path(tempfile.mkdtemp(prefix=f"tls-{label}-", dir=parent))   # 0700
    try:
        _own(directory, owner)
        tls = InstanceTls.in_directory(directory)
        _write(tls.key_file, credentials.key, 0o600, owner)
        _write(tls.cert_file, credentials.cert, 0o644, owner)
        _write(tls.ca_file, credentials.ca_cert, 0o644, owner)
        return tls
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


def _private_dirs(path: Path, owner: pwd.struct_passwd) -> None:
    """Makes ``path`` and its missing parents 0700, the owner's; ``path`` must be the owner's (its nodes,
    which run as the owner, read the files there, and nobody else may manage them)."""
    missing = []
    p = path
    while not p.exists() and not p.is_symlink():
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        d.mkdir(mode=0o700)
        _own(d, owner)
    if path.is_symlink() or not path.is_dir() or path.stat().st_uid != owner.pw_uid:
        raise PermissionError(f"{path} is not a directory of {owner.pw_name}'s own: the instance's TLS files "
                              f"go into one (its nodes run as {owner.pw_name})")


def _own(path: Path, owner: pwd.struct_passwd) -> None:
    if os.getuid() != owner.pw_uid:
        os.chown(path, owner.pw_uid, owner.pw_gid, follow_symlinks=False)


def _write(path: Path, data: bytes, mode: int, owner: pwd.struct_passwd) -> None:
    """Writes a new file, with ``mode`` from the start (never readable by others, even for a moment)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        if os.getuid() != owner.pw_uid:
            os.fchown(fd, owner.pw_uid, owner.pw_gid)
        os.write(fd, data)
    finally:
        os.close(fd)
