#!/usr/bin/env python3
# Independent check of the glTF importer's --skin-shells (src/import/gltf_skin_shells.c), written from
# the glTF 2.0 spec alone: for each skin joint, the scene distance at the rest pose of the farthest
# vertex it moves with a weight above 0.05 (|M_joint * (IBM * v)|, M the joint's rest world linear
# map), in cm. Prints the joints beyond 3 cm and their range (capped at 100 cm like the importer).
#   python3 tests/independent/skin_shells.py FILE.gltf   (.gltf with data: or external buffers)
import json, struct, math, base64, sys, os
path=sys.argv[1]
base=os.path.dirname(os.path.abspath(path))+'/'
d=json.load(open(path))
def load(b):
    u=b['uri']
    if u.startswith('data:'): return base64.b64decode(u.split(',',1)[1])
    return open(base+u,'rb').read()
bins=[load(b) for b in d['buffers']]
def acc(i):
    A=d['accessors'][i]; V=d['bufferViews'][A['bufferView']]; buf=bins[V['buffer']]
    n={'SCALAR':1,'VEC2':2,'VEC3':3,'VEC4':4,'MAT4':16}[A['type']]
    fmt={5126:'f',5121:'B',5123:'H'}[A['componentType']]; sz=struct.calcsize(fmt)
    stride=V.get('byteStride',sz*n); off=V.get('byteOffset',0)+A.get('byteOffset',0)
    return [struct.unpack_from('<'+fmt*n, buf, off+k*stride) for k in range(A['count'])]
def qmat(q):
    x,y,z,w=q
    return [[1-2*(y*y+z*z),2*(x*y-z*w),2*(x*z+y*w)],[2*(x*y+z*w),1-2*(x*x+z*z),2*(y*z-x*w)],[2*(x*z-y*w),2*(y*z+x*w),1-2*(x*x+y*y)]]
def local(n):
    if 'matrix' in n:
        m=n['matrix']; return [[m[0],m[4],m[8]],[m[1],m[5],m[9]],[m[2],m[6],m[10]]]
    R=qmat(n.get('rotation',[0,0,0,1])); S=n.get('scale',[1,1,1])
    return [[R[i][j]*S[j] for j in range(3)] for i in range(3)]
parent={}
for i,n in enumerate(d['nodes']):
    for c in n.get('children',[]): parent[c]=i
def world(i):
    M=local(d['nodes'][i]); p=parent.get(i)
    while p is not None:
        P=local(d['nodes'][p]); M=[[sum(P[r][k]*M[k][c] for k in range(3)) for c in range(3)] for r in range(3)]; p=parent.get(p)
    return M
reach={}
for si,skin in enumerate(d.get('skins',[])):
  ibm=acc(skin['inverseBindMatrices']); joints=skin['joints']
  W={k:world(joints[k]) for k in range(len(joints))}
  for n in d['nodes']:
    if n.get('skin')!=si: continue
    for prim in d['meshes'][n['mesh']]['primitives']:
        a=prim['attributes']; P=acc(a['POSITION']); J=acc(a['JOINTS_0']); Wt=acc(a['WEIGHTS_0'])
        for v,jj,ww in zip(P,J,Wt):
            for k,w in zip(jj,ww):
                if w<=0.05: continue
                m=ibm[k]; l=[m[r]*v[0]+m[4+r]*v[1]+m[8+r]*v[2]+m[12+r] for r in range(3)]
                M=W[k]; e=[sum(M[r][c]*l[c] for c in range(3)) for r in range(3)]
                key=joints[k]
                reach[key]=max(reach.get(key,0), math.sqrt(sum(x*x for x in e))*100)
vals=[min(x,100) for x in reach.values() if x>3]
print(len(vals), 'joints over 3 cm, range %.3g-%.3g cm' % (min(vals), max(vals)))
